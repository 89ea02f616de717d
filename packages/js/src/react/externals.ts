// What the React bindings use of React and of the client, imported here once: a bundle keeps each file's import
// statement of an external module, and `service-js/react` has a size budget (test/size.test.ts).
export { createContext, useCallback, useContext, useEffect, useMemo, useRef, useState, useSyncExternalStore } from 'react'
export { bootstrapSnapshot, service } from 'service-js'
