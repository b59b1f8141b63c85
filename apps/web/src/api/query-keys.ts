/**
 * The app's query keys, in one place so an invalidation names exactly what it means. Repository
 * keys use the lower-cased full name: the code host treats `Acme/WebApp` and `acme/webapp` alike.
 */
const repository = (fullName: string) => ['repository', fullName.toLowerCase()] as const;

export const queryKeys = {
  repository,
  repositoryAccess: (fullName: string) => [...repository(fullName), 'access'] as const,
  repositorySettings: (fullName: string) => [...repository(fullName), 'settings'] as const,
  repositorySecrets: (fullName: string) => [...repository(fullName), 'secrets'] as const,
  repositoryLogs: (fullName: string, page: number) => [...repository(fullName), 'logs', page] as const,
  scriptLog: (logId: string) => ['script-log', logId] as const,
};
