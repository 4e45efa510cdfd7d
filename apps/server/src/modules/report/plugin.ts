// The reports: shipment, production, GSP records and the operations reports (alarms, online,
// mileage). The services that answer files are given to the scheduled reports (app.reports).
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { ModuleContext } from '../context.ts';
import { alarmReportService } from './alarm-report.ts';
import { gspService } from './gsp.ts';
import { mileageReportService } from './mileage.ts';
import { onlineReportService } from './online.ts';
import { productionService } from './production.ts';
import { reportRoutes } from './routes.ts';
import { shipmentService } from './shipment.ts';

/** The report services that answer files, for the scheduled reports. */
export interface ReportServices {
  gsp: ReturnType<typeof gspService>;
  alarm: ReturnType<typeof alarmReportService>;
  online: ReturnType<typeof onlineReportService>;
  mileage: ReturnType<typeof mileageReportService>;
}

declare module 'fastify' {
  interface FastifyInstance {
    /** The report services that answer files (the scheduled reports make theirs with them). */
    reports: ReportServices;
  }
}

export const reportPlugin = fp(async (app: FastifyInstance, ctx: ModuleContext) => {
  const db = ctx.database.db;
  const reports: ReportServices = {
    gsp: gspService(db, { geocoder: app.geocoder }),
    alarm: alarmReportService(db),
    online: onlineReportService(db, { offlineAfterMs: ctx.config.offlineAfterMs }),
    mileage: mileageReportService(db),
  };
  app.decorate('reports', reports);
  await app.register(reportRoutes, {
    shipments: shipmentService(db, { geocoder: app.geocoder, batches: (taskId) => app.products.taskBatches(taskId), tripBudget: (taskId) => app.products.tripBudget(taskId) }),
    production: productionService(db),
    gsp: reports.gsp,
    alarmReports: reports.alarm,
    onlineReports: reports.online,
    mileageReports: reports.mileage,
  });
});
