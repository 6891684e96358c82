import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { metricsInputShape, metricsWindow } from '../../ops/metrics.js';
import { renderMetrics } from '../../render/metrics.js';
import { mcpProgress } from '../progress.js';
import { toolError, toolResult } from '../tool-result.js';
import { annotationsFor } from './annotations.js';

/** Charts of the signals that moved the harmful way, worst first as the analysis orders them. */
const MAX_CHART_IMAGES = 3;

export function registerMetricsTools(server: McpServer): void {
  server.registerTool(
    'metrics_window',
    {
      title: 'What changed, when, where: a window of metrics history',
      description:
        "Reads a time window from the user's Prometheus-compatible server (configured by the user in CQL_TUNER_PROMETHEUS_URL; there is no URL argument) " +
        'and answers "what changed at 02:13?": per node, read/write throughput and p99, pending compactions, compacted bytes, dropped messages, timeouts, hints, ' +
        'GC time, CPU, disk await/util; change points (when it started, which node first, what moved with it) and findings citing series and times. ' +
        "Knows the Prometheus JMX exporter (example Cassandra rules), ScyllaDB's own metrics and node_exporter. Series are summarised, never dumped (raw: true for the points); a PNG chart comes with each signal that moved the harmful way (up to 3). " +
        "Without a Prometheus, scrape: true reads the nodes' exporter pages now, a few times over scrapeFor (endpoints configured by the user in CQL_TUNER_SCRAPE_URLS, " +
        "or the running lab's): rates, p99 and gauges per node, and findings for shed/dropped requests, timeouts or a node not answering.",
      inputSchema: metricsInputShape,
      annotations: annotationsFor('metrics_window'),
    },
    async (args, extra) => {
      try {
        const r = await metricsWindow(args, { onProgress: mcpProgress(extra), signal: extra.signal, charts: true });
        // The charts go to the assistant as PNG images (it cannot read SVG), a few at most; the JSON stays summaries.
        const { charts, ...rest } = r;
        const result = toolResult(renderMetrics(rest), rest);
        if (result.isError || !charts?.length) return result;
        const images = charts.slice(0, MAX_CHART_IMAGES).map((c) => ({ type: 'image' as const, data: c.png.toString('base64'), mimeType: 'image/png' }));
        return { ...result, content: [...result.content, ...images] };
      } catch (e) {
        return toolError(e);
      }
    },
  );
}
