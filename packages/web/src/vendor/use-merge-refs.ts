// `useMergeRefs` of @floating-ui/react 0.27 (MIT, https://github.com/floating-ui/floating-ui), the only thing Mantine's
// ScrollArea takes from that package (vite.config.ts points ScrollArea's import here). Importing it from the package
// put the whole of @floating-ui (some 14 KB gzip, for the dropdowns of Selects and tooltips) into the chunk of every
// page with a Table, whose scroll container is a ScrollArea.
import { useCallback, useMemo, useRef, type Ref, type RefCallback } from 'react';

type Cleanup = () => void;

export function useMergeRefs<T>(refs: Array<Ref<T> | undefined>): RefCallback<T> | null {
  const cleanupRef = useRef<Cleanup | undefined>(undefined);
  const refEffect = useCallback((instance: T) => {
    const cleanups = refs.map((ref) => {
      if (ref == null) return undefined;
      if (typeof ref === 'function') {
        const refCleanup = ref(instance);
        return typeof refCleanup === 'function' ? refCleanup : () => void ref(null);
      }
      (ref as { current: T | null }).current = instance;
      return () => {
        (ref as { current: T | null }).current = null;
      };
    });
    return () => cleanups.forEach((cleanup) => cleanup?.());
    // As in @floating-ui: the refs themselves are the dependencies.
  }, refs);
  return useMemo(() => {
    if (refs.every((ref) => ref == null)) return null;
    return (value: T | null) => {
      if (cleanupRef.current) {
        cleanupRef.current();
        cleanupRef.current = undefined;
      }
      if (value != null) cleanupRef.current = refEffect(value);
    };
  }, refs);
}
