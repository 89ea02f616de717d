import { ActionIcon, Box, Code, CopyButton, Tooltip } from '@mantine/core';

/** A block of code with a button that copies it. */
export function CopyCode({ code, label = 'Copy' }: { code: string; label?: string }) {
  return (
    <Box pos="relative">
      <Code block style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere', paddingRight: 48 }}>
        {code}
      </Code>
      <CopyButton value={code}>
        {({ copied, copy }) => (
          <Tooltip label={copied ? 'Copied' : label} withArrow>
            <ActionIcon variant="default" aria-label={label} onClick={copy} pos="absolute" top={8} right={8}>
              {copied ? <CheckIcon /> : <CopyIcon />}
            </ActionIcon>
          </Tooltip>
        )}
      </CopyButton>
    </Box>
  );
}

/** A single value (a token, a key) with a copy button. */
export function CopyValue({ value, label }: { value: string; label: string }) {
  return (
    <Box style={{ display: 'flex', alignItems: 'center', gap: 8 }}>
      <Code style={{ overflowWrap: 'anywhere' }}>{value}</Code>
      <CopyButton value={value}>
        {({ copied, copy }) => (
          <Tooltip label={copied ? 'Copied' : label} withArrow>
            <ActionIcon variant="subtle" aria-label={label} onClick={copy} size="sm">
              {copied ? <CheckIcon /> : <CopyIcon />}
            </ActionIcon>
          </Tooltip>
        )}
      </CopyButton>
    </Box>
  );
}

function CopyIcon() {
  return (
    <svg
      width="16"
      height="16"
      viewBox="0 0 24 24"
      fill="none"
      stroke="currentColor"
      strokeWidth="2"
      strokeLinecap="round"
      strokeLinejoin="round"
      aria-hidden="true"
    >
      <rect x="9" y="9" width="12" height="12" rx="2" />
      <path d="M5 15H4a2 2 0 0 1-2-2V4a2 2 0 0 1 2-2h9a2 2 0 0 1 2 2v1" />
    </svg>
  );
}

function CheckIcon() {
  return (
    <svg
      width="16"
      height="16"
      viewBox="0 0 24 24"
      fill="none"
      stroke="currentColor"
      strokeWidth="2.5"
      strokeLinecap="round"
      strokeLinejoin="round"
      aria-hidden="true"
    >
      <path d="M20 6 9 17l-5-5" />
    </svg>
  );
}
