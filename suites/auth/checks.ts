// Authentication and authorisation (§5, §7.4–§7.6): 401 without a valid key, 403 outside scopes or the IP
// allowlist or the owner's role, 404 for what the key cannot see.
import type { CheckDefinition } from '../../src/checks/index.ts'
import { checks as credentials } from './credentials.ts'
import { checks as guards } from './guards.ts'
import { checks as ipAllowlist } from './ip-allowlist.ts'
import { checks as role } from './role.ts'
import { checks as scopes } from './scopes.ts'
import { checks as visibility } from './visibility.ts'

export const checks: CheckDefinition[] = [...credentials, ...scopes, ...role, ...ipAllowlist, ...visibility, ...guards]
