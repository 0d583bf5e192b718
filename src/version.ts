import { readFileSync } from 'node:fs'

/** The suite's version, from package.json: part of every report and of every certification verdict. */
export const TOOL_VERSION: string = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')).version

/** The project's root folder (where package.json, suites/ and schemas/ are). */
export const PROJECT_ROOT = new URL('..', import.meta.url).pathname
