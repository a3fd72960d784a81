// Settings → Spam's values, their defaults and bounds: no database, so the page's form
// (a client component) takes them too. The rules that save them: ./spam-settings.ts.

export type SpamSettingsValues = {
  threshold: number;
  businessOnly: boolean;
  /** More than this many leads in burstMinutes from one address or sender is a burst; 0: off. */
  burstLimit: number;
  burstMinutes: number;
  retentionDays: number;
};

/** A new team's settings: the columns' defaults (prisma/models.prisma). */
export const SPAM_SETTINGS_DEFAULTS: SpamSettingsValues = Object.freeze({
  threshold: 10,
  businessOnly: false,
  burstLimit: 5,
  burstMinutes: 10,
  retentionDays: 30,
});

export const SPAM_SETTINGS_BOUNDS = {
  threshold: { min: 1, max: 100 },
  burstLimit: { min: 0, max: 1000 },
  burstMinutes: { min: 1, max: 1440 },
  retentionDays: { min: 1, max: 365 },
} as const;
