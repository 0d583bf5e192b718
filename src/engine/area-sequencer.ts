// Runs the suite files in area order, the run-wide invariants last (they read every exchange of the run).
import { BaseSequencer, type TestSpecification } from 'vitest/node'
import { AREA_ORDER } from './areas.ts'

function rank(file: string): number {
  const match = /suites\/([^/]+)\//.exec(file.replace(/\\/g, '/'))
  const index = match ? AREA_ORDER.indexOf(match[1] as (typeof AREA_ORDER)[number]) : -1
  return index === -1 ? AREA_ORDER.length - 1.5 : index
}

export class AreaSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    return [...files].sort((a, b) => rank(a.moduleId) - rank(b.moduleId))
  }
}
