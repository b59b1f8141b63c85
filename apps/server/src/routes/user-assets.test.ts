import { testDatabaseKinds } from '@tandem/db/testing';
import { IMAGE_MESSAGES, conversationResponseSchema, createAgentResponseSchema } from '@tandem/shared';
import { beforeAll, describe, expect, it } from 'vitest';
import { useTestApp, type TestApp, type TestUser } from '../testing/test-app.js';

// A 1×1 transparent PNG.
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
  'base64',
);

describe.each(testDatabaseKinds())('message images on %s', (kind) => {
  const testApp = useTestApp(kind);
  let app: TestApp;
  let ada: TestUser;
  let eve: TestUser;
  const as = (user: TestUser) => ({ authorization: `Bearer ${user.token}` });

  beforeAll(async () => {
    app = testApp();
    ada = await app.signIn({
      username: 'ada',
      installations: [{ id: 21, name: 'acme', role: 'admin', repos: ['acme/webapp'] }],
    });
    eve = await app.signIn({ username: 'eve', installations: [{ id: 22, name: 'eve', role: 'admin' }] });
  });

  const create = (images: { data: string; type: string; name: string }[]) =>
    app.server.inject({
      method: 'POST',
      url: '/api/agents/create-agent/acme/webapp',
      headers: as(ada),
      payload: { body: 'What is in this picture?', images },
    });

  it('stores attached images and serves them to those who can see the agent', async () => {
    const res = await create([
      { data: PNG.toString('base64'), type: 'image/png', name: 'dot.png' },
      {
        data: `data:image/png;base64,${PNG.toString('base64')}`,
        type: 'image/png',
        name: 'ünïcode "dot".png',
      },
    ]);
    expect(res.statusCode).toBe(200);
    const { event_uuid, agent_id } = createAgentResponseSchema.parse(res.json());
    const feed = conversationResponseSchema.parse(
      (
        await app.server.inject({
          url: `/api/agent/conversation?trajectory_id=${agent_id}`,
          headers: as(ada),
        })
      ).json(),
    );
    expect(feed.conversation[0]).toMatchObject({ action_uuid: event_uuid, image_count: 2 });

    for (const n of [1, 2]) {
      const image = await app.server.inject({
        url: `/user_asset/event/${event_uuid}/${n}`,
        headers: as(ada),
      });
      expect(image.statusCode).toBe(200);
      expect(image.headers['content-type']).toBe('image/png');
      expect(image.rawPayload.equals(PNG)).toBe(true);
    }
    expect(
      (await app.server.inject({ url: `/user_asset/event/${event_uuid}/3`, headers: as(ada) })).statusCode,
    ).toBe(404);
    expect(
      (await app.server.inject({ url: `/user_asset/event/${event_uuid}/1`, headers: as(eve) })).statusCode,
    ).toBe(404);
    expect((await app.server.inject({ url: `/user_asset/event/${event_uuid}/1` })).statusCode).toBe(401);
  });

  it('refuses what is not a raster image, bad base64 and oversized images before storing anything', async () => {
    const svg = await create([
      { data: Buffer.from('<svg/>').toString('base64'), type: 'image/svg+xml', name: 'x.svg' },
    ]);
    expect(svg.statusCode).toBe(400);
    expect(svg.json().detail).toBe(IMAGE_MESSAGES.type);
    const garbage = await create([{ data: 'not base64!', type: 'image/png', name: 'x.png' }]);
    expect(garbage.json().detail).toBe(IMAGE_MESSAGES.data);
    const huge = await create([
      { data: Buffer.alloc(5 * 1024 * 1024 + 3).toString('base64'), type: 'image/png', name: 'big.png' },
    ]);
    expect(huge.statusCode).toBe(413);
    expect(huge.json().detail).toBe(IMAGE_MESSAGES.size);
    const list = (await app.server.inject({ url: '/api/agents', headers: as(ada) })).json();
    expect(list.count).toBe(1);
  });
});
