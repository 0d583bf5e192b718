// What the generator tests share (not part of the package: tsconfig.build.json leaves it out).
import { bodyFields } from './schema-fields.ts'

const ID = '3f2b8c1e-4d5a-4b6c-8d7e-9f0a1b2c3d4e'

/** Every uuid field gets a real-looking id, so bodies that require one (comment caseId…) can be generated. */
export const refsFor = (resource: Parameters<typeof bodyFields>[0], op: Parameters<typeof bodyFields>[1]) =>
  Object.fromEntries(
    bodyFields(resource, op)
      .filter((f) => f.kind === 'uuid')
      .map((f) => [f.name, ID]),
  )
