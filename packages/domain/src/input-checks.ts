import { ValidationError, type FieldIssue } from '@coperto/errors';

/**
 * Collects every problem of an input before failing, so a 400 names all bad fields at once.
 * GraphQL already checked the types; these are the ranges and rules.
 */
export class InputChecks {
  readonly issues: FieldIssue[] = [];

  add(field: string, message: string): this {
    this.issues.push({ field, message });
    return this;
  }

  intInRange(field: string, value: number | null | undefined, min: number, max: number): this {
    if (value === undefined || value === null) return this;
    if (!Number.isInteger(value) || value < min || value > max)
      this.add(field, `must be an integer from ${min} to ${max}`);
    return this;
  }

  numberInRange(
    field: string,
    value: number | null | undefined,
    min: number,
    max = Number.MAX_SAFE_INTEGER,
  ): this {
    if (value === undefined || value === null) return this;
    if (!Number.isFinite(value) || value < min || value > max)
      this.add(field, `must be a number from ${min} to ${max}`);
    return this;
  }

  positive(field: string, value: number | null | undefined): this {
    if (value === undefined || value === null) return this;
    if (!Number.isFinite(value) || value <= 0) this.add(field, 'must be a positive number');
    return this;
  }

  /** A text's length in characters (Unicode code points, as JSON Schema's minLength and maxLength count them). */
  text(field: string, value: string | null | undefined, options: { min?: number; max: number }): this {
    if (value === undefined || value === null) return this;
    if (codePointsAtLeast(value.trim(), options.min ?? 0) === false)
      this.add(
        field,
        options.min === 1 ? 'must not be empty' : `must have at least ${options.min} characters`,
      );
    else if (codePointsAtLeast(value, options.max + 1))
      this.add(field, `must have at most ${options.max} characters`);
    return this;
  }

  required(field: string, value: unknown): this {
    if (value === undefined || value === null) this.add(field, 'is required');
    return this;
  }

  throwIfAny(): void {
    if (this.issues.length > 0) throw new ValidationError(this.issues);
  }
}

/**
 * Whether `value` has at least `count` Unicode code points, counting no further than needed: a character outside
 * the Basic Multilingual Plane (𝕋, most emoji) is two UTF-16 units but one character, so `length` alone would refuse
 * a text the OpenAPI document's maxLength allows (Schemathesis, ST202 on `GET /api/ospiti?tag=`).
 */
export function codePointsAtLeast(value: string, count: number): boolean {
  if (value.length < count) return false;
  if (value.length >= 2 * count) return true;
  let seen = 0;
  for (const _ of value) if (++seen >= count) return true;
  return seen >= count;
}
