/** autocannon ships no types; the benches read a few numbers of its result. */
declare module 'autocannon' {
  type Options = {
    url: string;
    connections?: number;
    duration?: number;
    headers?: Record<string, string>;
    [option: string]: unknown;
  };
  type Histogram = { average: number; p50: number; p99: number; [key: string]: number };
  type Result = {
    requests: Histogram;
    latency: Histogram;
    throughput: Histogram;
    non2xx: number;
    errors: number;
    timeouts: number;
    [key: string]: unknown;
  };
  function autocannon(options: Options): Promise<Result>;
  export default autocannon;
}
