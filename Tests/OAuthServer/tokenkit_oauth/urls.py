"""DOT mounted at the server root (issuer = http://127.0.0.1:PORT), plus Django's login page.

One local adjustment, about DOT's glue rather than the protocol: the OpenID discovery
document also lists the device authorization and revocation endpoints (DOT serves both), as
most providers do.
"""
import json

from django.contrib.auth import views as auth_views
from django.urls import include, path, re_path, reverse
from oauth2_provider import views as dot_views


class DiscoveryView(dot_views.ConnectDiscoveryInfoView):
    def get(self, request, *args, **kwargs):
        response = super().get(request, *args, **kwargs)
        if response.status_code != 200:
            return response
        document = json.loads(response.content)
        issuer = document["issuer"]
        document.setdefault("device_authorization_endpoint",
                            issuer + reverse("oauth2_provider:device-authorization"))
        document.setdefault("revocation_endpoint", issuer + reverse("oauth2_provider:revoke-token"))
        response.content = json.dumps(document).encode()
        response["Content-Length"] = str(len(response.content))
        return response


urlpatterns = [
    path("accounts/login/", auth_views.LoginView.as_view(), name="login"),
    re_path(r"^\.well-known/openid-configuration/?$", DiscoveryView.as_view()),
    path("", include("oauth2_provider.urls", namespace="oauth2_provider")),
]
