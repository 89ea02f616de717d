// Types of postgres.mjs.

/** A fresh schema on a PostgreSQL database, for service processes of a test. */
export function postgresSchema(databaseUrl: string): {
  schema: string;
  /** `DATABASE_URL` and `DATABASE_SCHEMA` for `service start`. */
  env: { DATABASE_URL: string; DATABASE_SCHEMA: string };
  /** Drops the schema and everything in it. */
  drop(): Promise<void>;
};
