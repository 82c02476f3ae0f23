from tools.chaos.cli import main

main()
