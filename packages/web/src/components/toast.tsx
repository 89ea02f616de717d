import type { NotificationData } from '@mantine/notifications';
import { useEffect, useState, type ComponentType } from 'react';

// Mantine's toasts (their container, transitions and styles: some 25 KB gzip) load with the first toast shown, not
// with every first page: most visits show none.
type Loaded = typeof import('./notifications');
let loading: Promise<Loaded> | undefined;
let mount: ((container: ComponentType) => void) | undefined;
let mounted: ComponentType | undefined;

const load = () => (loading ??= import('./notifications'));

/** Shows a toast (bottom right); the first one loads the toasts' code. */
export function toast(data: NotificationData) {
  void load().then((m) => {
    if (!mounted) {
      mounted = m.default;
      mount?.(m.default);
    }
    m.notifications.show(data);
  });
}

/** Where the toasts show: renders nothing until the first toast. */
export function ToastHost() {
  const [Container, setContainer] = useState<ComponentType | undefined>(() => mounted);
  useEffect(() => {
    mount = (c) => setContainer(() => c);
    if (mounted) setContainer(() => mounted);
    return () => {
      mount = undefined;
    };
  }, []);
  return Container ? <Container /> : null;
}
