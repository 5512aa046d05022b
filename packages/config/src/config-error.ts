/** One bad or missing variable. `message` never contains a secret's value. */
export interface ConfigIssue {
  readonly variable: string;
  readonly message: string;
}

/**
 * Thrown by `loadConfig` when any variable is missing or invalid. It names every problem at once, so one
 * failed start shows everything that needs fixing.
 */
export class ConfigError extends Error {
  readonly issues: readonly ConfigIssue[];

  constructor(issues: readonly ConfigIssue[]) {
    super(formatIssues(issues));
    this.name = 'ConfigError';
    this.issues = Object.freeze([...issues]);
  }
}

function formatIssues(issues: readonly ConfigIssue[]): string {
  const count = issues.length === 1 ? '1 problem' : `${issues.length} problems`;
  return [`Invalid configuration (${count}):`, ...issues.map((i) => `  - ${i.variable}: ${i.message}`)].join(
    '\n',
  );
}
