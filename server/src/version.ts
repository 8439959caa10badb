import serverPackage from "../package.json";

/** The server's version, as its package declares it (bundled in, so the bin and `serverInfo` agree). */
export const SERVER_VERSION: string = serverPackage.version;
