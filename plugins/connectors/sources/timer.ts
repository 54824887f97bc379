import { CronExpressionParser } from 'cron-parser';
import type { ComponentType, SourceContext } from '../../components/contract.js';

/** When the next period starts after `now`: a multiple of `every_seconds` since the epoch, or the cron's next time. */
export function nextTick(config: { every_seconds?: number; cron?: string; timezone?: string }, now: number): number {
  if (config.every_seconds !== undefined) {
    const period = config.every_seconds * 1000;
    return (Math.floor(now / period) + 1) * period;
  }
  const expression = CronExpressionParser.parse(config.cron as string, {
    currentDate: new Date(now),
    ...(config.timezone ? { tz: config.timezone } : {}),
  });
  return expression.next().getTime();
}

/**
 * A tick per period. The source runs on the one instance holding its lease; each tick is appended
 * with the period's start as its dedup id, so even an instance that lost its lease mid-tick and the
 * one that took over cannot append the same period twice (the append is also fenced by the lease).
 * Periods are aligned to the clock (epoch multiples, or the cron's times): a takeover keeps them.
 * Periods missed while no instance ran it are not made up.
 */
export const timerType: ComponentType = {
  name: 'timer',
  kind: 'source',
  summary: 'Appends one message per period (every_seconds, or a cron expression), once across all instances',
  config_schema: {
    type: 'object',
    additionalProperties: false,
    oneOf: [{ required: ['every_seconds'] }, { required: ['cron'] }],
    properties: {
      every_seconds: {
        type: 'integer',
        minimum: 1,
        maximum: 31_536_000,
        description: 'The period; ticks fall on multiples of it since the epoch.',
      },
      cron: {
        type: 'string',
        minLength: 9,
        maxLength: 200,
        description: 'Five or six fields (cron-parser syntax); times in `timezone` (UTC by default).',
      },
      timezone: { type: 'string', maxLength: 64, description: 'An IANA time zone for `cron`, e.g. Europe/Paris.' },
      payload: { description: 'The JSON value of each tick; by default {tick_at}.' },
    },
  },
  validate(config) {
    if (typeof config.cron !== 'string') return [];
    try {
      nextTick(config as { cron: string; timezone?: string }, Date.now());
      return [];
    } catch (err) {
      return [{ pointer: '/cron', message: `is not a cron expression: ${(err as Error).message}` }];
    }
  },
  create(config) {
    const settings = config as { every_seconds?: number; cron?: string; timezone?: string; payload?: unknown };
    nextTick(settings, Date.now()); // a bad cron expression fails the start, with its message as last_error
    let timer: NodeJS.Timeout | undefined;
    let context: SourceContext | undefined;
    const schedule = () => {
      const at = nextTick(settings, Date.now());
      timer = setTimeout(() => void tick(at), Math.max(0, at - Date.now()));
    };
    const tick = async (at: number) => {
      if (!context || context.signal.aborted) return;
      const tickAt = new Date(at).toISOString();
      const value = settings.payload === undefined ? { tick_at: tickAt } : settings.payload;
      try {
        await context.emit({
          body: Buffer.from(JSON.stringify(value)),
          content_type: 'application/json',
          headers: { 'x-tick-at': tickAt, 'x-source': 'timer' },
          dedup_id: `tick:${at}`,
        });
      } catch (err) {
        if (!context.signal.aborted) context.fail(err instanceof Error ? err : new Error(String(err)));
        return;
      }
      if (!context.signal.aborted) schedule();
    };
    return {
      async start(ctx) {
        context = ctx;
        schedule();
      },
      async stop() {
        clearTimeout(timer);
      },
    };
  },
};
