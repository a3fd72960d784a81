// How many bodies a connection keeps (deliveries waiting for a mapping, refusals of an unknown shape), and their bytes.
export const KEPT_DELIVERIES_PER_CONNECTION = 100;
export const KEPT_BYTES_PER_CONNECTION = 10 * 1024 * 1024;
