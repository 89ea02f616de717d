import { useBlocker } from '@tanstack/react-router';
import { useEffect, useRef } from 'react';
import { confirm } from './confirm';

/**
 * Keeps a form's unsaved changes from being lost by leaving its page (a link, a tab of the page, back) without a word:
 * the app asks first, and the browser asks before a reload or closing the tab. `saving(save)` runs the form's save
 * (or delete) with the guard off: a save that moves to another page is no leaving. The guard is on again once the
 * form is clean, or when `save` fails or resolves `false` (the user did not go ahead).
 */
export function useUnsavedChanges(dirty: boolean) {
  const paused = useRef(false);
  useEffect(() => {
    if (!dirty) paused.current = false;
  }, [dirty]);
  useBlocker({
    shouldBlockFn: async () =>
      !paused.current &&
      !(await confirm({
        title: 'Leave without saving?',
        message: 'Your changes on this page are not saved yet. They are lost if you leave.',
        confirmLabel: 'Leave without saving',
        cancelLabel: 'Stay',
        danger: true,
      })),
    disabled: !dirty,
    enableBeforeUnload: () => dirty && !paused.current,
  });
  return {
    async saving<T>(save: () => Promise<T>): Promise<T> {
      paused.current = true;
      try {
        const result = await save();
        if (result === false) paused.current = false;
        return result;
      } catch (error) {
        paused.current = false;
        throw error;
      }
    },
  };
}
