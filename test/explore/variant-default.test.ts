// No false findings: the explorer against the reference server's legal variant default (test/explore/proof.ts).
import { proveVariant } from './proof.ts'

proveVariant('default')
