import type { FastifyInstance } from 'fastify';
import type { Db } from '@tandem/db';
import {
  type BillingClientConfig,
  CREATE_REPO_ERRORS,
  createRepoSchema,
  INSTALLATION_HEADER,
  PRODUCT_NAME,
  setActiveInstallationSchema,
  type ClientConfig,
  type Sunset,
} from '@tandem/shared';
import { requireUser } from '../auth/authenticate.js';
import type { SiteConfig } from '../config/schema.js';
import type { SecretBox } from '../crypto/secret-box.js';
import { AppError, notFound } from '../errors/app-error.js';
import { CodeHostRequestError, type CodeHostGateway } from '../github/gateway.js';
import { parseRequest } from '../http/validation.js';
import { syncUserFromCodeHost, upsertRepositories } from '../services/code-host-sync.js';
import { loadUserProfile, sealedUserToken, setActiveInstallation } from '../services/users.js';

export interface InstallationRouteDeps {
  db: Db;
  gateway: CodeHostGateway;
  secretBox: SecretBox;
  admins: ReadonlySet<string>;
  appSlug: string;
  site: SiteConfig;
  sunset: Sunset | null;
  /** How the browser adds cards; null without billing. */
  billing: BillingClientConfig | null;
}

export function installationRoutes(app: FastifyInstance, deps: InstallationRouteDeps): void {
  app.get('/api/config', async () => {
    const body: ClientConfig = {
      product_name: PRODUCT_NAME,
      code_host_url: deps.gateway.webUrl,
      install_url: deps.gateway.installUrl,
      app_slug: deps.appSlug,
      site: {
        discord_url: deps.site.discordUrl,
        support_email: deps.site.supportEmail,
        social_links: deps.site.socialLinks,
        landing_claim: deps.site.landingClaim,
        cloud_host: deps.site.cloudHost,
        model_providers: deps.site.modelProviders,
      },
      sunset: deps.sunset,
      billing: deps.billing,
    };
    return body;
  });

  /** Remembers the chosen installation server-side (the browser also keeps it in local storage). */
  app.post('/api/users/active-installation', async (request) => {
    const user = requireUser(request);
    const { installation_id } = parseRequest(setActiveInstallationSchema, request.body, 'body');
    const profile = await loadUserProfile(deps.db, user.id);
    if (!profile.installations.some((i) => i.id === installation_id))
      throw notFound('Installation not found');
    await setActiveInstallation(deps.db, user.id, installation_id);
    return loadUserProfile(deps.db, user.id);
  });

  /**
   * Re-reads the user's installations from the code host with their stored token. The web app calls
   * it when the code host sends the user back from installing the App, so the new installation
   * shows even if the webhook has not arrived yet.
   */
  app.post('/api/installations/sync', async (request) => {
    const user = requireUser(request);
    const sealed = await sealedUserToken(deps.db, user.id);
    if (!sealed) throw new AppError('unauthorized', 'Sign in with GitHub again to refresh installations');
    let token: string;
    try {
      token = deps.secretBox.open(sealed);
    } catch {
      throw new AppError('unauthorized', 'Sign in with GitHub again to refresh installations');
    }
    let view;
    try {
      view = await deps.gateway.loadUserView(token);
    } catch (error) {
      request.log.warn({ err: error }, 'installation sync: code host refused or unreachable');
      throw new AppError('bad_gateway', 'Could not reach the code host to refresh installations');
    }
    await syncUserFromCodeHost(deps.db, {
      ...view,
      sealedToken: sealed,
      admin: deps.admins.has(view.user.login.toLowerCase()),
    });
    return loadUserProfile(deps.db, user.id);
  });

  /**
   * Creates a repository on the active installation's account from a template, acting as the
   * user (their own code-host permissions apply), and adds it to Tandem at once.
   */
  app.post('/api/installation/create-repo', async (request) => {
    const user = requireUser(request);
    const body = parseRequest(createRepoSchema, request.body, 'body');
    const profile = await loadUserProfile(deps.db, user.id);
    const headerId = Number(request.headers[INSTALLATION_HEADER]);
    const installationId =
      Number.isInteger(headerId) && headerId > 0 ? headerId : profile.active_installation_id;
    const installation = profile.installations.find((i) => i.id === installationId);
    if (!installation) throw new AppError('conflict', CREATE_REPO_ERRORS[409]!);

    const sealed = await sealedUserToken(deps.db, user.id);
    let token: string;
    try {
      token = deps.secretBox.open(sealed ?? '');
    } catch {
      throw new AppError('unauthorized', CREATE_REPO_ERRORS[401]!);
    }
    try {
      const repo = await deps.gateway.createRepoFromTemplate(token, {
        owner: installation.name,
        name: body.repo_name,
        description: body.description,
        private: body.private,
        templateOwner: body.template_owner,
        templateRepo: body.template_repo,
      });
      await upsertRepositories(deps.db, installation.id, [repo]);
      const [owner = installation.name, name = body.repo_name] = repo.fullName.split('/');
      return { repo_owner: owner, repo_name: name };
    } catch (error) {
      if (!(error instanceof CodeHostRequestError)) throw error;
      request.log.info(
        { status: error.status, reason: error.message },
        'create-repo refused by the code host',
      );
      if (error.status === 401) throw new AppError('unauthorized', CREATE_REPO_ERRORS[401]!);
      if (error.status === 403) throw new AppError('forbidden', CREATE_REPO_ERRORS[403]!);
      if (error.status === 422 && /already exists/i.test(error.message))
        throw new AppError('conflict', CREATE_REPO_ERRORS[409]!);
      if (error.status === 422 || error.status === 404)
        throw new AppError('validation', CREATE_REPO_ERRORS[422]!);
      throw new AppError('bad_request', error.message);
    }
  });
}
