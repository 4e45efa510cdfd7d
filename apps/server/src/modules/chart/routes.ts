// POST /api/iot/v2/charts/svg: a chart drawn to SVG for a signed-in user's screen (ECharts'
// server-side rendering): the screen shows it as an image until ECharts is needed.
import type { EChartsOption } from 'echarts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { CHART_API, CHART_OPTION_MAX_BYTES, chartSvgBodySchema, chartSvgSchema } from '@iotc/shared/chart';
import { envelopeSchema } from '@iotc/shared/envelope';
import { AppError } from '../../lib/errors.ts';
import { ok } from '../../plugins/errors.ts';
import { chartSvg } from '../../lib/chart-svg.ts';

export const chartRoutes: FastifyPluginAsyncZod = async (app) => {
  app.post(
    CHART_API.svg,
    {
      schema: {
        tags: ['chart'],
        summary: 'A chart (an ECharts option of bar, line or pie series, data only) drawn to SVG at the given size, in the light or dark theme',
        body: chartSvgBodySchema,
        response: { 200: envelopeSchema(chartSvgSchema) },
      },
      // The option's bytes and the few fields around them.
      bodyLimit: CHART_OPTION_MAX_BYTES + 1024,
      preHandler: app.authenticate,
    },
    async (req) => {
      let svg: string;
      try {
        const { option, width, height, dark } = req.body;
        svg = chartSvg(option as EChartsOption, { width, height, dark });
      } catch {
        // ECharts refuses what it cannot draw (an axis of an unknown type, a malformed series).
        throw new AppError(400, 'CHART_OPTION_INVALID');
      }
      return ok({ svg });
    },
  );
};
