# The service image for docker-compose.yml: the same build runs every ROLE (api, processors, projections).
# tsx runs the TypeScript sources directly, as `npm start` does; there is no separate build step.
FROM node:20-bookworm-slim
WORKDIR /app
ENV NODE_ENV=production
COPY package.json package-lock.json ./
# Dev dependencies stay out; install scripts are not needed by the runtime (feasibility: --ignore-scripts works).
RUN npm ci --omit=dev --ignore-scripts --no-audit --no-fund
COPY . .
RUN mkdir -p /data && chown node:node /data
USER node
ENV DATA_DIR=/data HOST=0.0.0.0 PORT=8080
EXPOSE 8080
HEALTHCHECK --interval=5s --timeout=3s --retries=30 CMD node -e "fetch('http://127.0.0.1:8080/v2/health').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"
CMD ["node", "--import", "tsx", "infra/main.ts"]
