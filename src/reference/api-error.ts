// The §7 error, thrown anywhere in a handler and written once by the app's error handler.

export interface ErrorDetail {
  /** The field, as segments (`['items', '0', 'name']`); the variant decides how a path is written. */
  segments: string[]
  message: string
  /** Where the field is; body fields follow the variant's path style, the others are named as sent. */
  in?: 'body' | 'query' | 'path' | 'header'
}

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly details?: ErrorDetail[],
    readonly headers?: Record<string, string>,
  ) {
    super(message)
    this.name = 'ApiError'
  }
}

/** §7.3: the message says that some fields are missing or invalid. */
export const INVALID_MESSAGE = 'Some fields are missing or invalid.'

export function invalidRequest(details: ErrorDetail[]): ApiError {
  return new ApiError(400, 'invalid_request', INVALID_MESSAGE, details)
}

export function invalidField(field: string, message: string): ApiError {
  return invalidRequest([{ segments: field === '' ? [] : [field], message }])
}

export function notFound(what = 'record'): ApiError {
  return new ApiError(404, 'not_found', `No such ${what}.`)
}
