// Before a run that will start the webhook sink on CRM_WEBHOOK_SINK_PORT: is that port free? A busy one would
// otherwise turn every webhook check into an error; refused at start instead, naming the variable.
import { createServer } from 'node:net'

/** Undefined when `host:port` can be listened on; else why not, in words naming CRM_WEBHOOK_SINK_PORT. */
export function sinkPortProblem(host: string, port: number): Promise<string | undefined> {
  if (port === 0) return Promise.resolve(undefined)
  return new Promise((resolve) => {
    const probe = createServer()
    probe.once('error', (error: NodeJS.ErrnoException) =>
      resolve(
        error.code === 'EADDRINUSE'
          ? `the webhook sink cannot listen on ${host}:${port}: the port is busy (CRM_WEBHOOK_SINK_PORT=${port}); stop what listens there, or set CRM_WEBHOOK_SINK_PORT to a free port (and the target's webhook URL to match)`
          : `the webhook sink cannot listen on ${host}:${port} (CRM_WEBHOOK_SINK_HOST, CRM_WEBHOOK_SINK_PORT): ${error.code ?? error.message}`,
      ),
    )
    probe.listen({ host, port, exclusive: true }, () => probe.close(() => resolve(undefined)))
  })
}
