import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app';
import { bootstrap } from '../src/bootstrap';
import { openDatabase, type Db } from '../src/db/database';
import { createServices } from '../src/services';
import { testConfig, testStorage } from './helpers';

/** FLAG_CACHE_PROJECTS=2 and four projects: the compiled flags of the least recently used are dropped. */
describe('the flag definitions cache, bounded', () => {
  const storage = testStorage();
  let db: Db;
  let app: FastifyInstance;
  const projects: { id: number; token: string }[] = [];
  let key: string;
  beforeAll(async () => {
    db = await openDatabase(storage);
    const config = { ...testConfig, flagCacheProjects: 2 };
    const services = createServices(db, config);
    app = await buildApp(config, services);
    key = (await bootstrap(services, 'test')).personal_api_key;
    for (let i = 0; i < 4; i++) {
      const project = await services.projects.create(`cache ${i}`);
      projects.push({ id: project.id, token: project.api_token });
      const res = await app.inject({
        method: 'POST',
        url: `/api/projects/${project.id}/feature_flags/`,
        headers: { authorization: `Bearer ${key}` },
        payload: { key: 'which', filters: { groups: [{ properties: [], rollout_percentage: 100 }], payloads: { true: `"project ${i}"` } } },
      });
      expect(res.statusCode, res.body).toBe(201);
    }
  });
  afterAll(async () => {
    await app.close();
    await db.close();
    await storage.drop();
  });

  const which = async (project: number) => {
    const res = await app.inject({ method: 'POST', url: '/flags/?v=2', payload: { token: projects[project]!.token, distinct_id: 'someone' } });
    expect(res.statusCode, res.body).toBe(200);
    const flag = res.json().flags.which;
    return flag.enabled ? (flag.metadata.payload as string) : 'off';
  };

  it('answers each project with its own flags while more projects are asked for than it keeps', async () => {
    for (let round = 0; round < 3; round++) {
      for (const i of [0, 1, 2, 3, 2, 0]) expect(await which(i)).toBe(`"project ${i}"`);
    }
  });

  it('drops the least recently used project first, and compiles it again from the database when asked for', async () => {
    expect(await which(0)).toBe('"project 0"');
    expect(await which(1)).toBe('"project 1"');
    // Turned off behind the cache's back (no change notification): a project still kept answers as before.
    await db.kysely.updateTable('feature_flags').set({ active: 0 }).where('project_id', 'in', [projects[0]!.id, projects[1]!.id]).execute();
    expect(await which(0)).toBe('"project 0"'); // 0 is now the more recently used
    expect(await which(2)).toBe('"project 2"'); // past the bound: 1 is dropped
    expect(await which(1)).toBe('off'); // compiled again (and 0, now the least recently used, dropped)
    expect(await which(0)).toBe('off');
  });

  it('still forgets a project on a change made through the API', async () => {
    expect(await which(3)).toBe('"project 3"');
    const flag = await db.kysely.selectFrom('feature_flags').select('id').where('project_id', '=', projects[3]!.id).executeTakeFirstOrThrow();
    const res = await app.inject({
      method: 'PATCH',
      url: `/api/projects/${projects[3]!.id}/feature_flags/${flag.id}/`,
      headers: { authorization: `Bearer ${key}` },
      payload: { active: false },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(await which(3)).toBe('off');
  });
});
