/** The limits of a guest's profile and of the search, enforced here and documented by the REST facade. */
export const GUEST_LIMITS = {
  nameMaxLength: 200,
  notesMaxLength: 2000,
  /** Tags and allergies: entries per list, characters per entry. */
  labelsMaxItems: 30,
  labelMaxLength: 50,
  searchTextMaxLength: 200,
  searchMaxLimit: 200,
  searchDefaultLimit: 50,
} as const;

/** A language tag: `it`, `en`, `pt-BR`. */
export const LANGUAGE_PATTERN = '^[a-z]{2}(-[A-Z]{2})?$';
