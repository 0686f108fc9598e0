// /ext/metrics: Prometheus text exposition of this process, as promhttp serves the real node's.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Health } from '../../health/health.js';
import { reply } from '../../rpc/http.js';

export function metricsHandler(health: Health, startedAtMs: number) {
  return (req: IncomingMessage, res: ServerResponse): void => {
    req.resume();
    const mem = process.memoryUsage();
    const cpu = process.cpuUsage();
    const failing = Object.values(health.report('health', []).checks).filter((c) => 'error' in c).length;
    const lines = [
      '# HELP avalanche_health_checks_failing number of currently failing health checks',
      '# TYPE avalanche_health_checks_failing gauge',
      `avalanche_health_checks_failing{tag="all"} ${failing}`,
      '# HELP process_cpu_seconds_total Total user and system CPU time spent in seconds.',
      '# TYPE process_cpu_seconds_total counter',
      `process_cpu_seconds_total ${(cpu.user + cpu.system) / 1e6}`,
      '# HELP process_resident_memory_bytes Resident memory size in bytes.',
      '# TYPE process_resident_memory_bytes gauge',
      `process_resident_memory_bytes ${mem.rss}`,
      '# HELP process_start_time_seconds Start time of the process since unix epoch in seconds.',
      '# TYPE process_start_time_seconds gauge',
      `process_start_time_seconds ${startedAtMs / 1000}`,
      '# HELP nodejs_heap_used_bytes V8 heap in use in bytes.',
      '# TYPE nodejs_heap_used_bytes gauge',
      `nodejs_heap_used_bytes ${mem.heapUsed}`,
    ];
    const body = `${lines.join('\n')}\n`;
    reply(res, 200, ['Content-Type', 'text/plain; version=0.0.4; charset=utf-8'], body);
  };
}
