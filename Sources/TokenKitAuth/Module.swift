// TokenKitAuth module. (Files are added by the feature work; this line keeps the target loadable.)
