import { Changes } from './changes';
import type { Db } from './db/database';
import type { Core, ServerModule, ServicesConfig } from './module';
import { ACTIVITY_KINDS, MODULES, WEBHOOK_KINDS } from './modules';
import { shareTurns } from './turns';

type ServicesOf<M> = M extends { services: (deps: never) => infer S } ? S : never;
type Intersection<U> = (U extends unknown ? (u: U) => void : never) extends (i: infer I) => void ? I : never;

/** The core and every module's services, over one database. */
export type Services = Core & Intersection<ServicesOf<(typeof MODULES)[number]>>;

/** Every module, each part of it given the services. */
const modules: readonly ServerModule<Services>[] = MODULES;

/** Makes every module's services, in the modules' order. `ingest.close()` waits for accepted events: call it before closing `db`. */
export function createServices(db: Db, config: ServicesConfig): Services {
  // Requests' CPU work takes its turns one at a time on PostgreSQL, so the ingest transaction's statements go out between (`turns.ts`).
  shareTurns(db.dialect === 'postgres');
  const core: Core = { db, changes: new Changes(db), config, webhookKinds: WEBHOOK_KINDS, activityKinds: ACTIVITY_KINDS };
  const made: Record<string, unknown> = { ...core };
  for (const module of modules) {
    if (module.services) Object.assign(made, module.services(madeBefore(made, module.name)));
  }
  return made as unknown as Services;
}

/** The services made so far, as a module's factory sees them: asking for one not made yet is a mistake in the modules' order. */
function madeBefore(made: Record<string, unknown>, name: string): Services {
  return new Proxy(made, {
    get(target, key) {
      if (typeof key === 'string' && !Object.hasOwn(target, key)) {
        throw new Error(`The ${name} module takes "${key}", which no module before it makes: move it after that module in src/modules.ts.`);
      }
      return target[key as string];
    },
  }) as unknown as Services;
}
