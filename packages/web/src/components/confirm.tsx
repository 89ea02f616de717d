import { Button, Group, Modal, Stack, Text } from '@mantine/core';
import { useEffect, useState, type ReactNode } from 'react';

export interface ConfirmOptions {
  /** The question, as the dialog's title: "Delete new-checkout?". */
  title: string;
  /** What follows from saying yes. */
  message: ReactNode;
  /** The button that goes ahead, named after the action: "Delete flag". */
  confirmLabel: string;
  cancelLabel?: string;
  /** Red, with the focus on Cancel: for what cannot be undone or takes something away from people. */
  danger?: boolean;
}

interface Request extends ConfirmOptions {
  resolve: (ok: boolean) => void;
}

let open: ((request: Request) => void) | undefined;

/**
 * Asks the user to confirm in the app's own dialog (the browser's `window.confirm` is unstyled, blocks the page and
 * names no action); resolves true when they go ahead. Needs a `ConfirmHost` on the page (the app's layout has one).
 */
export function confirm(options: ConfirmOptions): Promise<boolean> {
  return new Promise((resolve) => {
    if (open) open({ ...options, resolve });
    else resolve(false);
  });
}

/** Where `confirm` shows its dialog. A second question while one is open answers the first with no. */
export function ConfirmHost() {
  const [request, setRequest] = useState<Request | null>(null);
  const [opened, setOpened] = useState(false);
  useEffect(() => {
    open = (next) => {
      setRequest((current) => {
        current?.resolve(false);
        return next;
      });
      setOpened(true);
    };
    return () => {
      open = undefined;
    };
  }, []);
  const answer = (ok: boolean) => {
    request?.resolve(ok);
    // The request stays for the closing transition (its title and text would vanish first), answered only once.
    setRequest((current) => current && { ...current, resolve: () => undefined });
    setOpened(false);
  };
  return (
    <Modal opened={opened} onClose={() => answer(false)} title={request?.title} centered>
      <Stack gap="lg">
        <Text size="sm" className="wrap-anywhere">
          {request?.message}
        </Text>
        <Group justify="flex-end" gap="sm">
          <Button variant="default" onClick={() => answer(false)} data-autofocus={request?.danger || undefined}>
            {request?.cancelLabel ?? 'Cancel'}
          </Button>
          {/* red.9: white on the theme's red (shade 7) is 3.8:1, under WCAG's 4.5 */}
          <Button color={request?.danger ? 'red.9' : undefined} onClick={() => answer(true)} data-autofocus={!request?.danger || undefined}>
            {request?.confirmLabel}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
