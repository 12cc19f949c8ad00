"""The table service: Flask app factory plus Flask-SocketIO in threading mode."""

from .app import Services, create_app

__all__ = ["Services", "create_app"]
