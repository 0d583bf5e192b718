// Sales: leads, deals in every stage, products, and the documents the API cannot bring into being itself (§3:
// sent, accepted and declined quotations, an order, sent, paid and void invoices with a payment).

import { dateOf, isoOf } from '../clock.ts'
import { STAGES, orderFromQuotation, totalsOf } from '../model-kit.ts'
import type { Json } from '../store.ts'
import { SEED_EPOCH, item, type SeedContext, type Seeder } from './seeder.ts'

export function seedSales(ctx: SeedContext) {
  const { s, rng, big, admin, sales, accounts, contacts, salesTeamId, pipelineId } = ctx
  const leadStatuses = big ? ['new', 'contacted', 'qualifying', 'converted', 'disqualified'] : ['new']
  leadStatuses.forEach((status, i) => {
    s.add(
      'lead',
      {
        number: s.number('lead', 'LEAD'),
        fullName: ['Zainal Abidin', 'Catherine Yeoh', 'Muthu Samy', 'Hannah Teo', 'Irfan Hakim'][i],
        companyName: ['Zainal Motors', 'Yeoh Bakery', null, 'Teo Design Studio', 'Hakim Farms'][i],
        email: [`Zainal@ZainalMotors.example`, 'catherine@yeohbakery.example', null, 'hannah@teodesign.example', 'irfan@hakimfarms.example'][i],
        phone: `+601${rng.int(10000000, 99999999)}`,
        source: ['web_form', 'email', 'chat', 'social', 'import'][i],
        sourceDetail: null,
        status,
        ownerId: sales[i % sales.length] ?? admin,
        teamId: salesTeamId,
        fields: { budget: ['< 10k', '10k-50k', '> 50k'][i % 3] },
        score: rng.int(10, 95),
        language: 'en',
        convertedAt: status === 'converted' ? isoOf(SEED_EPOCH + 86_400_000) : null,
        disqualifiedReason: status === 'disqualified' ? 'No budget this year' : null,
      },
      {},
      1800,
    )
  })

  const dealStages = big ? ['proposal', 'negotiation', 'closed_won', 'closed_lost'] : ['qualification']
  const deals = dealStages.map((stageKey, i) => {
    const status = stageKey === 'closed_won' ? 'won' : stageKey === 'closed_lost' ? 'lost' : 'open'
    return s.add(
      'opportunity',
      {
        number: s.number('opportunity', 'DEAL'),
        name: `${accounts[i % accounts.length].name}: ${['fleet tracking', 'coffee supply', 'ERP rollout', 'clinic software'][i]}`,
        accountId: accounts[i % accounts.length].id,
        contactId: contacts[i % contacts.length].id,
        pipelineId,
        stageKey,
        probability: STAGES[stageKey],
        amountSen: rng.int(50, 900) * 10_000,
        currency: 'MYR',
        expectedCloseDate: dateOf(SEED_EPOCH + (30 + i * 15) * 86_400_000),
        ownerId: sales[i % sales.length] ?? admin,
        teamId: salesTeamId,
        source: 'referral',
        competitors: i === 0 ? ['Globex'] : [],
        nextStep: status === 'open' ? 'Send the revised proposal' : null,
        status,
        wonAt: status === 'won' ? isoOf(SEED_EPOCH + 40 * 86_400_000) : null,
        lostAt: status === 'lost' ? isoOf(SEED_EPOCH + 41 * 86_400_000) : null,
        lostReason: status === 'lost' ? 'Price' : null,
      },
      {},
      5400,
    )
  })

  const products = (big ? ['SKU-ROAST-250', 'SKU-ROAST-1K', 'SKU-GRINDER-X2', 'SKU-SVC-INSTALL', 'SKU-OLD-BREWER'] : ['SKU-GLB-001']).map((sku, i) =>
    s.add('product', {
      sku,
      name: ['House roast 250 g', 'House roast 1 kg', 'Grinder X2', 'Installation service', 'Brewer (discontinued)'][i] ?? 'Sample product',
      description: i === 3 ? 'On-site installation, per visit' : null,
      unit: i === 3 ? 'visit' : 'unit',
      priceSen: [3500, 12000, 189900, 25000, 45000][i] ?? 1000,
      costSen: i === 3 ? null : ([2100, 7400, 120000, 0, 30000][i] ?? 500),
      currency: 'MYR',
      taxCategoryId: null,
      parentId: null,
      options: i === 0 ? { grind: ['whole', 'fine'] } : {},
      status: i === 4 ? 'archived' : 'active',
    }),
  )

  // Quotations in every state the API cannot reach itself (§3: created as drafts; transitions not shown).
  const quote = (status: string, i: number, extra: Json = {}, by: Seeder = s) => {
    const items = [item(String(products[0].name), 10 + i, Number(products[0].priceSen)), item('Delivery', 1, 5000, 0)]
    const deal = deals[i % deals.length]
    return by.add(
      'quotation',
      {
        number: by.number('quotation', 'QUO'),
        version: 1,
        title: `Quotation for ${accounts[i % accounts.length].name}`,
        dealId: deal.id,
        accountId: deal.accountId,
        contactId: deal.contactId,
        ownerId: deal.ownerId,
        status,
        currency: 'MYR',
        language: 'en',
        validUntil: dateOf(SEED_EPOCH + 60 * 86_400_000),
        paymentTermsDays: 30,
        terms: 'Prices include delivery within the Klang Valley.',
        ...totalsOf(items),
        sentAt: status === 'draft' ? null : isoOf(SEED_EPOCH + 2 * 86_400_000),
        decidedAt: status === 'accepted' || status === 'declined' ? isoOf(SEED_EPOCH + 5 * 86_400_000) : null,
        ...extra,
      },
      { priceListId: null, tier: null, notes: null, items },
      3600,
    )
  }
  const draftQuote = quote('draft', 0)
  const sentQuote = quote('sent', 1)
  const acceptedQuote = quote('accepted', 2)
  let orderedQuote: Json | undefined
  if (big) {
    orderedQuote = quote('accepted', 3)
    quote('declined', 4)
  }
  void draftQuote

  let order: Json | undefined
  if (orderedQuote) {
    const q = orderedQuote
    order = s.add('order', { ...orderFromQuotation(s.number('order', 'ORD'), q.id, q), fulfilledAt: null, cancelledAt: null })
  }

  const invoice = (status: string, i: number, paidSen = 0, by: Seeder = s) => {
    const items = [item(String(products[i % products.length].name), 2 + i, Number(products[i % products.length].priceSen))]
    const t = totalsOf(items)
    const issue = SEED_EPOCH + (10 + i) * 86_400_000
    return by.add(
      'invoice',
      {
        number: by.number('invoice', 'INV'),
        orderId: i === 2 && order ? order.id : null,
        dealId: i === 2 && order ? order.dealId : null,
        accountId: accounts[i % accounts.length].id,
        contactId: contacts[i % contacts.length].id,
        ownerId: sales[i % sales.length] ?? admin,
        title: `Invoice ${i + 1} for ${accounts[i % accounts.length].name}`,
        status,
        currency: 'MYR',
        language: 'en',
        issueDate: dateOf(issue),
        dueDate: dateOf(issue + 30 * 86_400_000),
        paymentTermsDays: 30,
        totalSen: t.totalSen,
        taxSen: t.taxSen,
        paidSen: status === 'paid' ? t.totalSen : paidSen,
        sentAt: status === 'draft' ? null : isoOf(issue + 3_600_000),
        paidAt: status === 'paid' ? isoOf(issue + 5 * 86_400_000) : null,
        voidedAt: status === 'void' ? isoOf(issue + 2 * 86_400_000) : null,
      },
      { terms: 'Payment within 30 days.', notes: null, items },
      600,
    )
  }
  invoice('draft', 0)
  const sentInvoice = invoice('sent', 1)
  if (big) {
    const paid = invoice('paid', 2)
    invoice('void', 3)
    s.add('payment', {
      invoiceId: paid.id,
      number: s.number('payment', 'PAY'),
      amountSen: paid.totalSen,
      method: 'bank_transfer',
      reference: 'FPX-20250120-0001',
      paidOn: String(paid.issueDate),
      note: null,
      source: 'app',
      voidedAt: null,
    })
  }
  /**
   * More of what a nightly run uses up (one accepted quotation's order, one invoice paid to zero), for fixture
   * pools: `count` accepted quotations and `count` sent invoices, drawn by a seeder of their own so every other
   * seeded record stays as it was.
   */
  const poolDocuments = (by: Seeder, count: number) => ({
    acceptedQuotes: Array.from({ length: count }, () => quote('accepted', 2, {}, by)),
    sentInvoices: Array.from({ length: count }, () => invoice('sent', 1, 0, by)),
  })
  return { sentQuote, acceptedQuote, sentInvoice, poolDocuments }
}
