// Errors a user may handle carry a stable code, not only a message.
export type CrmConfErrorCode =
  | 'CRMCONF_CONFIG_INVALID'
  | 'CRMCONF_NETWORK'
  | 'CRMCONF_TIMEOUT'
  | 'CRMCONF_RESPONSE_TOO_LARGE'
  | 'CRMCONF_BUDGET_EXHAUSTED'
  | 'CRMCONF_RATE_LIMITED'
  | 'CRMCONF_TARGET_UNREACHABLE'
  | 'CRMCONF_SCHEMA_INVALID'
  | 'CRMCONF_USAGE'
  | 'CRMCONF_RUN_STOPPED'
  | 'CRMCONF_SECRET_LEAKED'
  | 'CRMCONF_PRODUCT_INVALID'
  | 'CRMCONF_TRAFFIC_FILE_INVALID'
  | 'CRMCONF_WAIVERS_INVALID'

export class CrmConfError extends Error {
  constructor(
    readonly code: CrmConfErrorCode,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options)
    this.name = 'CrmConfError'
  }
}
