// State rules (§3, §4.2): drafts, draft-only replace and delete, orders from accepted quotations, payments.
import type { CheckDefinition } from '../../src/checks/index.ts'
import { invoiceChecks } from './invoice.ts'
import { nameChecks } from './names.ts'
import { orderChecks } from './order.ts'
import { paymentChecks } from './payment.ts'
import { quotationChecks } from './quotation.ts'

export const checks: CheckDefinition[] = [...quotationChecks, ...invoiceChecks, ...orderChecks, ...paymentChecks, ...nameChecks]
