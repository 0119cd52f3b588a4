/** The part of autocannon's programmatic API the runner uses (the package ships no types). */
declare module 'autocannon' {
  export interface Options { url: string; connections?: number; duration?: number; method?: string; headers?: Record<string, string>; body?: string }
  export interface Histogram { average: number; mean: number; p50: number; p90: number; p99: number; max: number }
  export interface Result { latency: Histogram; requests: Histogram & { total: number }; non2xx: number; errors: number; timeouts: number; duration: number }
  function autocannon(options: Options): Promise<Result>;
  export default autocannon;
}
