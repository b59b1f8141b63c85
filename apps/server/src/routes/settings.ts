import type { FastifyInstance } from 'fastify';
import type { Db } from '@tandem/db';
import {
  updateInstallationUserSchema,
  updateUserSettingsSchema,
  type UsersTable,
  type UserSettings,
} from '@tandem/shared';
import { requireUser } from '../auth/authenticate.js';
import type { CodeHostGateway } from '../github/gateway.js';
import { requestedInstallation } from '../http/installation-header.js';
import { parseRequest } from '../http/validation.js';
import { getUserSettings } from '../services/settings/get-user-settings.js';
import { installationAdminAccess } from '../services/settings/installation-access.js';
import { listInstallationUsers } from '../services/settings/list-installation-users.js';
import { updateInstallationUser } from '../services/settings/update-installation-user.js';
import { updateUserSettings } from '../services/settings/update-user-settings.js';

/** User settings and the installation users table (platform §3, §7). */
export function settingsRoutes(app: FastifyInstance, deps: { db: Db; gateway: CodeHostGateway }): void {
  const { db, gateway } = deps;

  app.get('/api/settings/user', async (request) => {
    const user = requireUser(request);
    const body: UserSettings = await getUserSettings(db, user.id);
    return body;
  });

  app.patch('/api/settings/user', async (request) => {
    const user = requireUser(request);
    const change = parseRequest(updateUserSettingsSchema, request.body, 'body');
    const body: UserSettings = await updateUserSettings(db, user.id, change);
    return body;
  });

  app.get('/api/settings/users-table', async (request) => {
    const user = requireUser(request);
    const access = await installationAdminAccess(db, user.id, requestedInstallation(request));
    const body: UsersTable = await listInstallationUsers(db, access, {
      webUrl: gateway.webUrl,
      productAdmin: user.admin,
    });
    return body;
  });

  app.patch('/api/settings/users-table', async (request) => {
    const user = requireUser(request);
    const access = await installationAdminAccess(db, user.id, requestedInstallation(request));
    const change = parseRequest(updateInstallationUserSchema, request.body, 'body');
    await updateInstallationUser(db, access, user.id, change, {
      findUser: (login) => gateway.findUser(access.installationId, login),
    });
    const body: UsersTable = await listInstallationUsers(db, access, {
      webUrl: gateway.webUrl,
      productAdmin: user.admin,
    });
    return body;
  });
}
