/** @type {import('next').NextConfig} */
const nextConfig = {
  // A second checkout-local build (a parallel browser test run) can live beside the main one.
  distDir: process.env.NEXT_DIST_DIR || ".next",
  // Native and Node-only packages stay out of the server bundle.
  serverExternalPackages: ["better-sqlite3", "@prisma/adapter-better-sqlite3", "@prisma/adapter-pg", "@prisma/client", "pg", "simple-git"],
  poweredByHeader: false,
  typedRoutes: false,
  async headers() {
    return [
      {
        source: "/(.*)",
        headers: [
          { key: "X-Content-Type-Options", value: "nosniff" },
          { key: "Referrer-Policy", value: "same-origin" },
          { key: "X-Frame-Options", value: "DENY" },
        ],
      },
    ];
  },
};

export default nextConfig;
