// The two seeded workspaces: the main one, where the suite works, and the foreign one whose records no key of the
// main workspace may see (§5.6).

import type { WorkspaceProfile } from './seeder.ts'

export const MAIN_WORKSPACE = 'ws_main'
export const OTHER_WORKSPACE = 'ws_other'

export const MAIN_PROFILE: WorkspaceProfile = {
  id: MAIN_WORKSPACE,
  name: 'Acme Malaysia Sdn Bhd',
  domain: 'acme.example',
  scale: 1,
  users: [
    { name: 'Aisyah Rahman', email: 'aisyah.rahman', role: 'admin', title: 'Operations Director' },
    { name: 'Daniel Tan', email: 'daniel.tan', role: 'sales', title: 'Account Executive' },
    { name: 'Priya Nair', email: 'priya.nair', role: 'sales', title: 'Account Executive', locale: 'en' },
    { name: 'Hafiz Ismail', email: 'hafiz.ismail', role: 'sales', title: 'Sales Manager', locale: 'ms' },
    { name: 'Mei Ling Wong', email: 'meiling.wong', role: 'agent', title: 'Support Agent', locale: 'zh-CN' },
    { name: 'Arjun Pillai', email: 'arjun.pillai', role: 'agent', title: 'Senior Support Agent', availability: 'away' },
    { name: 'Farah Aziz', email: 'farah.aziz', role: 'sales', title: 'Account Executive', status: 'inactive', availability: 'offline' },
  ],
  accounts: [
    { name: 'Perdana Logistics Sdn Bhd', industry: 'logistics', tier: 'gold', email: 'ops@perdana-logistics.example', city: 'Shah Alam' },
    { name: 'Kopi Kita Enterprise', industry: 'food_beverage', tier: 'silver', email: 'Hello@KopiKita.example', city: 'Ipoh' },
    { name: 'Borneo Timber Bhd', industry: 'manufacturing', tier: 'gold', email: 'admin@borneotimber.example', city: 'Kuching' },
    { name: 'Klinik Sejahtera', industry: 'healthcare', tier: 'bronze', email: 'frontdesk@kliniksejahtera.example', city: 'Johor Bahru' },
    { name: 'Nusantara Tech Sdn Bhd', industry: 'software', tier: 'gold', email: 'finance@nusantaratech.example', city: 'Cyberjaya' },
    { name: 'Lim & Partners', industry: 'professional_services', tier: null, email: null, city: 'George Town' },
  ],
  people: [
    { first: 'Nurul', last: 'Huda', mobile: '+60123456701', locale: 'ms' },
    { first: 'Kenneth', last: 'Lee', mobile: '+60123456702', locale: 'en' },
    { first: 'Siti', last: 'Aminah', mobile: '+60123456703', locale: 'ms' },
    { first: 'Wei Jie', last: 'Chong', mobile: '+60123456704', locale: 'zh-CN' },
    { first: 'Ravi', last: 'Kumar', mobile: '+60123456705', locale: 'en' },
    { first: 'Aina', last: 'Zulkifli', mobile: '+60123456706', locale: 'ms' },
    { first: 'Jason', last: 'Ong', mobile: '+60123456707', locale: 'en' },
    { first: 'Lakshmi', last: 'Devi', mobile: '+60123456708', locale: 'en' },
  ],
}

export const OTHER_PROFILE: WorkspaceProfile = {
  id: OTHER_WORKSPACE,
  name: 'Globex Trading Pte Ltd',
  domain: 'globex.example',
  scale: 0,
  users: [
    { name: 'Grace Lim', email: 'grace.lim', role: 'admin', title: 'Managing Director' },
    { name: 'Omar Yusof', email: 'omar.yusof', role: 'sales', title: 'Sales Executive' },
    { name: 'Tan Bee Leng', email: 'beeleng.tan', role: 'agent', title: 'Customer Care' },
  ],
  accounts: [
    { name: 'Straits Shipping Pte Ltd', industry: 'logistics', tier: 'gold', email: 'desk@straitsshipping.example', city: 'Singapore' },
    { name: 'Merlion Foods', industry: 'food_beverage', tier: 'silver', email: 'buy@merlionfoods.example', city: 'Singapore' },
  ],
  people: [
    { first: 'Hui Min', last: 'Goh', mobile: '+6591234501', locale: 'en' },
    { first: 'Ahmad', last: 'Said', mobile: '+6591234502', locale: 'ms' },
  ],
}
