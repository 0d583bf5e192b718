// No false findings: the explorer against the reference server's legal variant alt-c (test/explore/proof.ts).
import { proveVariant } from './proof.ts'

proveVariant('alt-c')
