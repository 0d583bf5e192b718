// No false findings: the explorer against the reference server's legal variant alt-a (test/explore/proof.ts).
import { proveVariant } from './proof.ts'

proveVariant('alt-a')
