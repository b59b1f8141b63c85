import { SUBDOMAIN_LABEL } from '@tandem/shared';

/**
 * Where previews live, resolved against the port the server actually listens on (tests and
 * `PORT=0` learn it only after listening), and which origins may frame them.
 */
export class PreviewSettings {
  /** Host header → its preview subdomain, asked on every request: the same few hosts repeat. */
  private readonly hosts = new Map<string, string | undefined>();
  private hostsTemplate: string | undefined;

  constructor(
    private readonly options: {
      /** `https://{subdomain}.preview.example.com`, or with `{port}`; undefined: previews off. */
      template: string | undefined;
      publicUrl: string | undefined;
      listeningPort: () => number | undefined;
    },
  ) {}

  get enabled(): boolean {
    return this.options.template !== undefined;
  }

  /** The last port resolved and its template: asked on every request, and the port never changes. */
  private resolvedFor: { port: number; template: string | undefined } | undefined;

  private resolved(): string | undefined {
    const port = this.options.listeningPort() ?? 0;
    if (this.resolvedFor?.port !== port) {
      this.resolvedFor = { port, template: this.options.template?.replace('{port}', String(port)) };
    }
    return this.resolvedFor.template;
  }

  /** The preview origin of one subdomain (no trailing slash). */
  urlOf(subdomain: string): string {
    const template = this.resolved();
    if (!template) throw new Error('previews are not configured');
    return template.replace('{subdomain}', subdomain);
  }

  secure(): boolean {
    return this.resolved()?.startsWith('https://') ?? false;
  }

  /** The subdomain named by a Host header, when the host is a preview host. */
  subdomainOfHost(host: string | undefined): string | undefined {
    const template = this.resolved();
    if (!template || !host) return undefined;
    if (template !== this.hostsTemplate || this.hosts.size >= 1000) {
      this.hosts.clear();
      this.hostsTemplate = template;
    }
    if (this.hosts.has(host)) return this.hosts.get(host);
    const subdomain = this.parseHost(template, host);
    this.hosts.set(host, subdomain);
    return subdomain;
  }

  private parseHost(template: string, host: string): string | undefined {
    const templateHost = template.replace(/^https?:\/\//, '').toLowerCase();
    const [prefix = '', suffix = ''] = templateHost.split('{subdomain}');
    let candidate = host.toLowerCase();
    // Browsers leave the default port out of Host.
    const defaultPort = this.secure() ? ':443' : ':80';
    if (suffix.endsWith(defaultPort))
      candidate = candidate.endsWith(defaultPort) ? candidate : candidate + defaultPort;
    if (!candidate.startsWith(prefix) || !candidate.endsWith(suffix)) return undefined;
    const label = candidate.slice(prefix.length, candidate.length - suffix.length);
    return SUBDOMAIN_LABEL.test(label) ? label : undefined;
  }

  /** The workspace's origins: the only pages that may frame a preview or talk to it. */
  appOrigins(): string[] {
    if (this.options.publicUrl) return [new URL(this.options.publicUrl).origin];
    const port = this.options.listeningPort();
    return [`http://localhost:${port}`, `http://127.0.0.1:${port}`];
  }

  /** The CSP source that lets the workspace frame any preview, e.g. `http://*.localhost:8080`. */
  frameSource(): string | undefined {
    return this.resolved()?.replace('{subdomain}', '*');
  }
}
