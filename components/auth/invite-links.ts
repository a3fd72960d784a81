/** Where an invitee with an account signs in: back to the invite afterwards (a same-origin callbackUrl). */
export const signInToAccept = (token: string) => `/signin?callbackUrl=${encodeURIComponent(`/invite/${token}`)}`;
