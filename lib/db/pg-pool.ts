import pg from "pg";
import { summariseError } from "../log/error-summary";
import { log } from "../log/logger";

// node-postgres reports a connection lost under a checked-out client (the network cut, the
// server shut down or the backend terminated) twice: the client's queries fail, and the client
// emits an 'error' event. The pool listens for that event only on idle clients, so a client
// held by the lead writer's batch or the dashboard's rollup that loses its connection threw an
// uncaught exception: under `next start` a bare line on stderr (Next logs uncaught exceptions
// and goes on), in a process without that handler (a test) its end. Every connection of the app's pool gets a listener for its whole
// life: the failed query is what the holder handles (the lead writer asks another connection
// whether its COMMIT went through); the event is logged, without values.

const logLost = (error: Error) => log("warn", "db.connection_lost", summariseError(error));

/**
 * A pg.Pool whose connections' errors are logged, never thrown at the process: a held
 * connection's on the client, an idle one's as the pool re-emits it (adapter-pg listens for those
 * too, on the pool it is given).
 */
export function newPool(config: pg.PoolConfig): pg.Pool {
  const pool = new pg.Pool(config);
  pool.on("error", logLost);
  pool.on("connect", (client) => client.on("error", logLost));
  return pool;
}
