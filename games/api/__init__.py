"""The HTTP API: DRF serializers and thin views."""
