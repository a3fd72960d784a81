"use client";

import { useSyncExternalStore } from "react";

const subscribe = () => () => {};

/**
 * False in the server's HTML and until React has hydrated the page, true after. A control that
 * needs the page's script (a button that opens a dialog) is disabled until then: a click on the
 * server's HTML would do nothing, on a slow device or in a browser test alike.
 */
export function useHydrated(): boolean {
  return useSyncExternalStore(
    subscribe,
    () => true,
    () => false,
  );
}
