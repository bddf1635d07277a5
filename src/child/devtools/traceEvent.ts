/** One event of a Chrome trace as the browser writes it (its JSON object): read by the recorder, its stream and its cut. */
export type TraceEvent = Record<string, unknown>;
