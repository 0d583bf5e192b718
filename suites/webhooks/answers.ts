// How the sink answers the first attempt of chosen deliveries: the sink takes one rule at a time, so every check
// that needs a chosen answer (a 503 to watch a retry, a 202 or 204 to watch none come) registers it here, and one
// rule installed once per run reads them all. Every other delivery is answered 200.
import type { CheckContext, RespondRule } from '../../src/checks/index.ts'

type Event = Parameters<RespondRule>[0]

export interface ChosenAnswer {
  /** Whether this is the delivery to answer (its first attempt only). */
  matches(event: Event): boolean
  status: number
}

/** The run's chosen answers; the sink's rule answers each one's first matching delivery once. */
export function chosenAnswers(ctx: CheckContext): Promise<ChosenAnswer[]> {
  return ctx.session.memo('webhooks.chosen-answers', async () => {
    const sink = await ctx.session.sink()
    const answers: ChosenAnswer[] = []
    const used = new Set<ChosenAnswer>()
    sink.respondWith((event, { attempt }) => {
      if (attempt !== 1) return undefined
      const answer = answers.find((a) => !used.has(a) && a.matches(event))
      if (answer === undefined) return undefined
      used.add(answer)
      return answer.status
    })
    return answers
  })
}
