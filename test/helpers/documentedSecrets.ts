/**
 * One case per form docs/runtime/redaction.md says is masked, each with the secret it carries,
 * plus the forms issue 33 found in clear (short numbers, a long quoted value, a percent-escape
 * before a token, a Map key with a space). Sent through every sink by
 * test/runtime/redaction/documentedForms.test.ts.
 */
import type { PlantedCase } from "./plantedSecrets.js";

/** An object of a class of its own: redaction reads its fields like a plain object's. */
class Settings {
  constructor(
    readonly region: string,
    readonly signingKey: string,
  ) {}
}

const LONG_COOKIE = "Q9".repeat(2_600); // 5,200 characters, past the old 4,096 bound
const PEM_BODY = "MIIEpAIBAAKCAQEA7bq98pemBodyLine0123456789";

type Row = readonly [form: string, value: unknown, secret: string];

const ROWS: readonly Row[] = [
  // Key names, strong: hidden whatever the value.
  ...[
    "password", "passwd", "passphrase", "secret", "credential", "authorization", "authentication", "bearer", "jwt",
    "cookie", "apikey", "accesskey", "privatekey", "accesstoken", "refreshtoken", "authtoken", "idtoken",
    "sessiontoken", "csrftoken", "xsrftoken", "signingkey",
  ].map((key, i): Row => [`strong key ${key}`, { [key]: `s${i}StrongSecretValue${i}` }, `s${i}StrongSecretValue${i}`]),
  ["strong key with separators (API-KEY)", { "API-KEY": "sepValueZ81Lm" }, "sepValueZ81Lm"],
  ["strong key, number value", { password: 87654321 }, "87654321"],
  ["strong key, bigint value", { db_password: 98765432101234567890n }, "98765432101234567890"],
  ["strong key over an object", { credentials: { user: "u", value: "nestedCredQ2w" } }, "nestedCredQ2w"],
  ["strong key in a class instance", new Settings("eu", "classSigningK3y"), "classSigningK3y"],
  ["strong key in a Map", new Map([["apiKey", "mapApiKeyV4lue"]]), "mapApiKeyV4lue"],
  ["Map key with a space", new Map([["client secret", "mapSpacedS3cret"]]), "mapSpacedS3cret"],
  ["name then value in an array", ["Authorization", "Bearer arrPairT0ken99"], "arrPairT0ken99"],
  ["pairs in an array", [["x-api-key", "pairsApiK3yV"]], "pairsApiK3yV"],
  ["flag then value in argv", ["deploy", "--password", "argvPassw0rdX"], "argvPassw0rdX"],
  // Key names, weak: hidden when the value is text or a container.
  ...["auth", "oauth", "token", "key", "pass", "pwd", "creds", "sig", "dsn"].map(
    (key, i): Row => [`weak key ${key}`, { [key]: `w${i}WeakSecretValue${i}` }, `w${i}WeakSecretValue${i}`],
  ),
  ["weak word inside a key (x-auth-token)", { "x-auth-token": "xAuthTok3nV" }, "xAuthTok3nV"],
  // Text.
  ["Bearer in prose", "the call used Bearer proseBearerT0k and failed", "proseBearerT0k"],
  ["Basic credentials", "Authorization was Basic dXNlcjpwYXNzd29yZA== then", "dXNlcjpwYXNzd29yZA=="],
  ["query string", "https://api.example.com/items?page=2&access_token=queryT0kenAbc&sort=asc", "queryT0kenAbc"],
  ["query string, short number", "https://h/login?password=11223344", "11223344"],
  ["header line", "x-api-key: headerK3yValue", "headerK3yValue"],
  ["Cookie header line", "Cookie: session=cookieHeaderV4l; theme=dark", "cookieHeaderV4l"],
  ["Authorization header line", "Authorization: Digest username=a, response=digestR3sp", "digestR3sp"],
  ["env line", "OPENAI_API_KEY=envLineK3yVal", "envLineK3yVal"],
  ["env line, short number", { env: "DB_PASSWORD=12345678" }, "12345678"],
  ["JSON text", '{"user":"ada","apiKey":"jsonTextK3yV"}', "jsonTextK3yV"],
  ["JSON text, short number", '{"password":87654321}', "87654321"],
  ["JSON text, quoted value over 4,096 characters", `{"cookie":"${LONG_COOKIE}"}`, LONG_COOKIE],
  ["JSON quoted inside JSON", JSON.stringify({ body: JSON.stringify({ token: "jsonInJsonT0k" }) }), "jsonInJsonT0k"],
  ["--flag=value", "deploy --token=flagEqT0kenV --region eu", "flagEqT0kenV"],
  ["flag then value", "mysql -u root --password flagSpaceP4ss -h db", "flagSpaceP4ss"],
  ["URL credentials", "https://deploy:urlPassw0rdQ@registry.example.com/v2/", "urlPassw0rdQ"],
  // Credentials with a known shape.
  ["sk- token", "configured with sk-ant-api03-shapeSkTokenAbcdef12 yesterday", "shapeSkTokenAbcdef12"],
  ["sk-proj after a percent-escape", "q=key%20sk-proj-abcdefghijklmnopqrstuvwxyz0123", "abcdefghijklmnopqrstuvwxyz0123"],
  ["sk- after a JSON escape", "line one\\nsk-proj-escapedShapeTokenXyz0123", "escapedShapeTokenXyz0123"],
  ["Stripe key", "stripe sk_live_stripeLiveK3y0123 set", "stripeLiveK3y0123"],
  ["GitHub token", "ghp_githubTokenAbcdefghij0123456789", "githubTokenAbcdefghij0123456789"],
  ["GitHub fine-grained token", "github_pat_11ABCDEFG0fineGrainedTok3n_xyz", "fineGrainedTok3n_xyz"],
  ["GitLab token", "glpat-gitlabTokenAbcdefghij012", "gitlabTokenAbcdefghij012"],
  ["AWS access key id", "aws AKIAIOSFODNN7EXAMPLE here", "IOSFODNN7EXAMPLE"],
  ["Slack token", "xoxb-slackTok3nAbcdefghij", "slackTok3nAbcdefghij"],
  ["Google API key", "AIzaGoogleApiKeyBodyZyxwvutsrqponmlk98", "GoogleApiKeyBodyZyxwvutsrqponmlk98"],
  ["Hugging Face token", "hf_HuggingFaceBodyZyxwvutsrqponmlkji7", "HuggingFaceBodyZyxwvutsrqponmlkji7"],
  ["npm token", "npm_NpmTokenBodyZyxwvutsrqponmlkjihg65", "NpmTokenBodyZyxwvutsrqponmlkjihg65"],
  ["JSON Web Token", "jwt eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJqd3RTdWIifQ.jwtSignaturePart0123", "jwtSignaturePart0123"],
  ["PEM private key block", `-----BEGIN RSA PRIVATE KEY-----\n${PEM_BODY}\n-----END RSA PRIVATE KEY-----`, PEM_BODY],
];

/** The table as cases: each value with the one secret it carries. */
export const DOCUMENTED_CASES: readonly PlantedCase[] = ROWS.map(([form, value, secret]) => ({ form, value, secrets: [secret] }));

/** The cases whose value is text: what an error message or a log sentence can carry as it is. */
export const TEXT_CASES: readonly PlantedCase[] = DOCUMENTED_CASES.filter((c) => typeof c.value === "string");
