// The few parts of autocannon's programmatic API the benchmarks use (it ships no types).
declare module 'autocannon' {
  interface Options {
    url: string;
    connections?: number;
    duration?: number;
    amount?: number;
    method?: string;
    headers?: Record<string, string>;
    body?: string;
    requests?: Array<{
      method?: string;
      path?: string;
      headers?: Record<string, string>;
      body?: string;
      setupRequest?: (req: Record<string, unknown>) => Record<string, unknown>;
    }>;
  }
  interface Histogram {
    average: number;
    mean: number;
    p50: number;
    p99: number;
  }
  interface Result {
    requests: Histogram & { total: number };
    latency: Histogram;
    errors: number;
    non2xx: number;
    '2xx': number;
  }
  function autocannon(options: Options): Promise<Result>;
  export default autocannon;
}
