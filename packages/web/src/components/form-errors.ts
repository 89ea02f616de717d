import { useState } from 'react';
import { ApiError } from '../api/client';
import { describeError } from './states';

/**
 * Errors of a form, by field: an API error's `attr` (`key`, `filters__groups`, …) is mapped to the field it names, so
 * the message appears next to it; anything else is the form's general error.
 */
export function useFormErrors(fieldOf: (attr: string) => string | undefined = (attr) => attr) {
  const [fields, setFields] = useState<Record<string, string>>({});
  const [general, setGeneral] = useState<string | null>(null);
  return {
    fields,
    general,
    field: (name: string) => fields[name],
    set(name: string, message: string) {
      setFields((f) => ({ ...f, [name]: message }));
    },
    /** Shows a message above the form. */
    setGeneral(message: string) {
      setFields({});
      setGeneral(message);
    },
    clear(name?: string) {
      if (name === undefined) {
        setFields({});
        setGeneral(null);
      } else if (fields[name] !== undefined) {
        setFields(({ [name]: _, ...rest }) => rest);
      }
    },
    /** Shows an error from the API next to its field (or above the form). */
    fromError(error: unknown) {
      const field = error instanceof ApiError && error.attr ? fieldOf(error.attr) : undefined;
      if (field) {
        setFields({ [field]: (error as ApiError).detail });
        setGeneral(null);
      } else {
        setGeneral(describeError(error));
      }
    },
  };
}
