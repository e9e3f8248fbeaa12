# One image for web, events, worker and beat (docker-compose.yml).
FROM python:3.13-slim
ENV PYTHONDONTWRITEBYTECODE=1 PYTHONUNBUFFERED=1 PIP_DISABLE_PIP_VERSION_CHECK=1
WORKDIR /app
COPY pyproject.toml constraints.txt ./
COPY club ./club
COPY games ./games
COPY templates ./templates
COPY static ./static
COPY manage.py ./
RUN pip install --no-cache-dir -c constraints.txt . \
 && SECRET_KEY=build-only-collectstatic DATABASE_URL=sqlite:////tmp/build.sqlite3 \
    python manage.py collectstatic --noinput \
 && useradd --system --uid 10001 club && mkdir -p /tmp/beat && chown club /tmp/beat
USER club
EXPOSE 8000 8001
CMD ["gunicorn", "club.wsgi:application", "--bind", "0.0.0.0:8000"]
