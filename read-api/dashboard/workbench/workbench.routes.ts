import type { FastifyPluginAsync } from 'fastify';
import type { AppServices } from '../../services.js';
import { alertDashboardRoutes } from './alerts.routes.js';
import { screenDashboardRoutes } from './screen.routes.js';
import { usageExportRoutes } from './usage-export.routes.js';
import { historyRoutes } from './history.routes.js';
import { transferVerdictRoutes } from './transfer-verdict.routes.js';
import { storedCheckRoutes } from './stored-checks.routes.js';
import { WORKBENCH_CSS } from './workbench.css.js';
import { checkFormRoutes } from './check-forms.routes.js';
import { monitorDashboardRoutes } from './monitors.routes.js';
import { policyDashboardRoutes } from './policies.routes.js';

/** The compliance workbench inside the dashboard: screening (light screen and full check with evidence routes), alerts (triage, report, export), policies (edit, activate, backtest) and its stylesheet. */
export function workbenchRoutes(services: AppServices): FastifyPluginAsync {
  return async (app) => {
    app.get('/dashboard/assets/workbench.css', { schema: { hide: true } }, async (_request, reply) =>
      reply.type('text/css; charset=utf-8').header('cache-control', 'public, max-age=300').send(WORKBENCH_CSS),
    );
    await app.register(alertDashboardRoutes(services));
    await app.register(screenDashboardRoutes(services));
    await app.register(usageExportRoutes(services));
    await app.register(historyRoutes(services));
    await app.register(transferVerdictRoutes(services));
    await app.register(storedCheckRoutes(services));
    await app.register(checkFormRoutes(services));
    await app.register(policyDashboardRoutes(services));
    if (services.monitors) await app.register(monitorDashboardRoutes(services, services.monitors));
  };
}
