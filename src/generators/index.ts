// fast-check generators of §4.4 write bodies, fed by the write schemas of schemas/writes/.
export { validBody, validModel, validValue, type Body, type BodyOptions } from './valid-body.ts'
export { invalidBody, defectsOf, type Defect, type DefectKind, type InvalidBody } from './invalid-body.ts'
export { bodyFields, type FieldKind, type FieldShape } from './schema-fields.ts'
export { isKeyedField } from './leaves.ts'
